// Dependency resolver for a toy package manager. Manifests are fetched from an
// in-memory "registry" through async calls, version ranges are matched with a
// small semver implementation, and the result is a flat, ordered install plan.
'use strict';

const REGISTRY_LATENCY_MS = 1;
const SEMVER_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;
const RANGE_RE = /^([\^~]|>=|<=|>|<|=)?\s*(v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

const registryData = {
  'http-core': {
    '1.2.0': { dependencies: [['url-kit', '^2.0.0'], ['log-lite', '~0.4.1']] },
    '1.3.1': { dependencies: [['url-kit', '^2.1.0'], ['log-lite', '~0.4.1']] },
  },
  'url-kit': {
    '2.0.3': { dependencies: [] },
    '2.1.0': { dependencies: [['punycode-mini', '>=1.0.0']] },
  },
  'log-lite': {
    '0.4.1': { dependencies: [] },
    '0.4.7': { dependencies: [] },
    '0.5.0': { dependencies: [['color-ansi', '^3.0.0']] },
  },
  'punycode-mini': {
    '1.0.0': { dependencies: [] },
    '1.1.0-beta.2': { dependencies: [] },
  },
  'color-ansi': {
    '3.0.0': { dependencies: [] },
  },
  'cache-plugin': {
    '0.9.0': { dependencies: { 'http-core': '^1.2.0', 'log-lite': '~0.4.0' } },
  },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

class Version {
  constructor(text) {
    const m = SEMVER_RE.exec(text)
    if (!m) throw new Error(`invalid version "${text}"`)
    const [, major, minor, patch, pre] = m
    Object.assign(this, { major: +major, minor: +minor, patch: +patch, pre: pre || null })
    this.text = text
  }

  compare(other) {
    for (const key of ['major', 'minor', 'patch']) {
      if (this[key] !== other[key]) return this[key] < other[key] ? -1 : 1
    }
    if (this.pre === other.pre) return 0
    if (this.pre === null) return 1
    if (other.pre === null) return -1
    return this.pre < other.pre ? -1 : 1
  }

  toString() {
    return `${this.major}.${this.minor}.${this.patch}${this.pre ? `-${this.pre}` : ''}`
  }
}

class Range {
  constructor(text) {
    const m = RANGE_RE.exec(text.trim())
    if (!m) throw new Error(`invalid range "${text}"`)
    this.op = m[1] || '='
    this.base = new Version(m[2])
    this.text = text
  }

  matches(v) {
    const c = v.compare(this.base)
    const { base } = this
    switch (this.op) {
      case '^':
        return c >= 0 && v.major === base.major && (base.major > 0 || v.minor === base.minor)
      case '~':
        return c >= 0 && v.major === base.major && v.minor === base.minor
      case '>=': return c >= 0
      case '<=': return c <= 0
      case '>': return c > 0
      case '<': return c < 0
      default: return c === 0
    }
  }
}

class Registry {
  constructor(data, { latency = REGISTRY_LATENCY_MS } = {}) {
    this.data = data
    this.latency = latency
    this.requests = 0
    this.cache = new Map()
  }

  async versions(name) {
    if (this.cache.has(name)) return this.cache.get(name)
    this.requests++
    await sleep(this.latency)
    const entry = this.data[name]
    if (!entry) throw new Error(`package not found: ${name}`)
    const list = Object.keys(entry).map((t) => new Version(t)).sort((a, b) => a.compare(b))
    this.cache.set(name, list)
    return list
  }

  async manifest(name, version) {
    await sleep(this.latency)
    const entry = this.data[name] && this.data[name][version.text]
    if (!entry) throw new Error(`no manifest for ${name}@${version}`)
    return { name, version: version.text, ...entry }
  }
}

async function pickVersion(registry, name, rangeText, { allowPrerelease = false } = {}) {
  const range = new Range(rangeText)
  const candidates = (await registry.versions(name))
    .filter((v) => allowPrerelease || v.pre === null)
    .filter((v) => range.matches(v))
  if (candidates.length === 0) {
    throw new Error(`no version of ${name} satisfies ${rangeText}`)
  }
  return candidates[candidates.length - 1]
}

async function resolveDependencies(registry, manifest) {
  await sleep(0)
  const requests = manifest.dependencies.map(([depName, range]) => ({ depName, range }))
  return Promise.all(
    requests.map(async ({ depName, range }) => {
      const version = await pickVersion(registry, depName, range)
      return { name: depName, version, range }
    })
  )
}

class Resolver {
  constructor(registry) {
    this.registry = registry
    this.resolved = new Map()
    this.edges = []
  }

  async add(name, rangeText) {
    const version = await pickVersion(this.registry, name, rangeText)
    await this.visit(name, version, [])
    return this
  }

  async visit(name, version, path) {
    const key = `${name}@${version}`
    if (path.includes(key)) throw new Error(`cycle: ${[...path, key].join(' -> ')}`)
    const seen = this.resolved.get(name)
    if (seen && seen.compare(version) >= 0) return
    this.resolved.set(name, version)
    const manifest = await this.registry.manifest(name, version)
    const deps = await resolveDependencies(this.registry, manifest)
    for (const dep of deps) {
      this.edges.push([key, `${dep.name}@${dep.version}`])
      await this.visit(dep.name, dep.version, [...path, key])
    }
  }

  plan() {
    const order = []
    const done = new Set()
    const deps = (key) => this.edges.filter(([from]) => from === key).map(([, to]) => to)
    const walk = (key) => {
      if (done.has(key)) return
      done.add(key)
      deps(key).forEach(walk)
      order.push(key)
    }
    for (const [name, version] of this.resolved) walk(`${name}@${version}`)
    return order
  }
}

function formatPlan(order, { width = 28 } = {}) {
  const lines = order.map((key, i) => {
    const [, name, ver] = /^(.+)@([^@]+)$/.exec(key)
    return `${String(i + 1).padStart(2)}. ${name.padEnd(width, '.')} ${ver}`
  })
  return lines.join('\n')
}

function summarize(resolver) {
  const versions = [...resolver.resolved.values()]
  const prerelease = versions.filter(({ pre }) => pre !== null).length
  const majors = new Set(versions.map(({ major }) => major))
  return {
    packages: versions.length,
    prerelease,
    majors: [...majors].sort((a, b) => a - b),
    requests: resolver.registry.requests,
  }
}

const projectManifest = {
  name: 'edge-proxy',
  version: '0.1.0',
  requires: [
    ['http-core', '^1.2.0'],
    ['log-lite', '~0.4.0'],
    ['cache-plugin', '^0.9.0'],
  ],
}

async function main() {
  const registry = new Registry(registryData)
  const resolver = new Resolver(registry)
  for (const [name, range] of projectManifest.requires) {
    await resolver.add(name, range)
  }
  const order = resolver.plan()
  console.log(`install plan for ${projectManifest.name}@${projectManifest.version}:`)
  console.log(formatPlan(order))
  const { packages, requests } = summarize(resolver)
  console.log(`${packages} packages, ${requests} registry requests`)
}

main()
