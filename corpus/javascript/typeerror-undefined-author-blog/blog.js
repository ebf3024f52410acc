// Tiny static blog generator: turns a list of posts written in a markdown-ish
// syntax into HTML pages, a tag index and an RSS-like feed. Written in the
// semicolon-less style, so several statements rely on automatic semicolon
// insertion.
'use strict'

const SITE = {
  title: 'Notes from the workshop',
  baseUrl: 'https://example.invalid/blog',
  perPage: 3,
  dateLocale: 'en-GB',
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun',
  'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

const authors = {
  ada: { handle: 'ada', profile: { displayName: 'Ada L.', site: 'https://ada.invalid' } },
  bo: { handle: 'bo', profile: { displayName: 'Bo Chen' } },
  guest: { handle: 'guest' },
}

const posts = [
  {
    id: 1,
    title: 'Sharpening chisels, the slow way',
    date: '2024-01-03',
    author: 'ada',
    tags: ['tools', 'hand-tools'],
    body: `# Sharpening

Start with a *coarse* stone and keep the bevel flat.
Use [the guide](https://example.invalid/guide) if you have one.

- flatten the back
- hone the bevel
- strop`,
  },
  {
    id: 2,
    title: 'A bench for a small flat',
    date: '2024-02-11',
    author: 'bo',
    tags: ['furniture', 'projects'],
    body: `# The bench

Only **four** boards and a handful of screws.
Total cost: about 35 euros.`,
  },
  {
    id: 3,
    title: 'Guest post: finishing oils compared',
    date: '2024-03-20',
    author: 'guest',
    tags: ['finishing'],
    body: `# Oils

Linseed, tung and *hardwax* oil on the same oak offcut.
See [my notes](https://example.invalid/oils) for drying times.`,
  },
]

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
  })[c])

const slugify = (title) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')

function formatDate(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (!m) return iso
  const [, year, month, day] = m
  return `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`
}

function inline(text) {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\*(.+?)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, label, href) => `<a href="${href}">${label}</a>`)
}

function markdownToHtml(src) {
  const out = []
  let list = null
  const flush = () => {
    if (list) {
      out.push(`<ul>${list.map((li) => `<li>${inline(li)}</li>`).join('')}</ul>`)
      list = null
    }
  }
  for (const raw of src.split('\n')) {
    const line = raw.trimEnd()
    let m
    if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flush()
      const level = m[1].length
      out.push(`<h${level}>${inline(m[2])}</h${level}>`)
    } else if ((m = /^[-*]\s+(.*)$/.exec(line))) {
      (list = list || []).push(m[1])
    } else if (line === '') {
      flush()
    } else {
      flush()
      out.push(`<p>${inline(line)}</p>`)
    }
  }
  flush()
  return out.join('\n')
}

function excerpt(body, words = 12) {
  const plain = body
    .replace(/^#.*$/gm, '')
    .replace(/[*_\[\]()]/g, '')
    .split(/\s+/)
    .filter(Boolean)
  const cut = plain.slice(0, words).join(' ')
  return plain.length > words ? `${cut}…` : cut
}

class TagIndex {
  constructor() {
    this.byTag = new Map()
  }

  add(post) {
    for (const tag of post.tags) {
      if (!this.byTag.has(tag)) this.byTag.set(tag, [])
      this.byTag.get(tag).push(post.id)
    }
    return this
  }

  popular(limit = 5) {
    return [...this.byTag.entries()]
      .map(([tag, ids]) => ({ tag, count: ids.length }))
      .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
      .slice(0, limit)
  }

  toHtml() {
    const items = this.popular().map(({ tag, count }) =>
      `<li><a href="${SITE.baseUrl}/tags/${slugify(tag)}">${escapeHtml(tag)}</a> (${count})</li>`)
    return `<ul class="tags">${items.join('')}</ul>`
  }
}

class BlogRenderer {
  constructor(site, authorTable) {
    this.site = site
    this.authors = authorTable
    this.pages = []
  }

  lookupAuthor(handle) {
    return this.authors[handle] || { handle, profile: { displayName: handle } }
  }

  formatAuthor(author) {
    const { profile } = author
    const name = escapeHtml(profile.displayName)
    return profile.site ? `<a rel="author" href="${profile.site}">${name}</a>` : name
  }

  renderPost(post) {
    const author = this.lookupAuthor(post.author)
    const url = `${this.site.baseUrl}/${formatDate(post.date).replace(/ /g, '-')}/${slugify(post.title)}`
    const html = `<article>
  <h1><a href="${url}">${escapeHtml(post.title)}</a></h1>
  <p class="meta">${formatDate(post.date)} by ${this.formatAuthor(author)}</p>
  ${markdownToHtml(post.body)}
</article>`
    this.pages.push({ url, html })
    return html
  }

  renderIndex(list) {
    const pageCount = Math.ceil(list.length / this.site.perPage)
    const pages = []
    for (let i = 0; i < pageCount; i++) {
      const chunk = list.slice(i * this.site.perPage, (i + 1) * this.site.perPage)
      const items = chunk.map((p) => `<li>${escapeHtml(p.title)}: ${escapeHtml(excerpt(p.body))}</li>`)
      pages.push(`<ol start="${i * this.site.perPage + 1}">${items.join('')}</ol>`)
    }
    return pages
  }

  feed(list) {
    const entries = list
      .slice()
      .sort((a, b) => b.date.localeCompare(a.date))
      .map(({ title, date, id }) => `<item id="${id}"><title>${escapeHtml(title)}</title><date>${date}</date></item>`)
    return `<rss title="${escapeHtml(this.site.title)}">${entries.join('')}</rss>`
  }
}

function wordStats(list) {
  const counts = list.map(({ body }) => body.split(/\s+/).length)
  const total = counts.reduce((a, b) => a + b, 0)
  return { total, average: total / (counts.length || 1), longest: Math.max(...counts) }
}

function build() {
  const renderer = new BlogRenderer(SITE, authors)
  const tags = posts.reduce((idx, p) => idx.add(p), new TagIndex())
  const stats = wordStats(posts)
  const output = {
    index: renderer.renderIndex(posts),
    tags: tags.toHtml(),
    feed: renderer.feed(posts),
    articles: posts.map((p) => renderer.renderPost(p)),
  }
  console.log(`built ${output.articles.length} articles, ${stats.total} words`)
  console.log(output.tags)
  return output
}

build()
