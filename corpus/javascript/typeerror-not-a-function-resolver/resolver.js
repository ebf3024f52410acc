// Dependency resolver for a toy package manager: manifests come from an
// in-memory registry through async calls and versions are picked by semver.
const registryData = {
  'http-core': { '1.3.1': [['log-lite', 0]] },
  'log-lite': { '0.4.1': [], '0.5.0': [] },
  'cache-plugin': { '0.9.0': { 'http-core': 1 } },
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

class Version {
  constructor(text) {
    const [, major, minor, patch] = /^(\d+)\.(\d+)\.(\d+)$/.exec(text)
    Object.assign(this, { major: +major, minor: +minor, patch: +patch, text })
  }

  compare(other) {
    return this.major - other.major || this.minor - other.minor || this.patch - other.patch
  }
}

class Registry {
  constructor(data) {
    this.data = data
  }

  async manifest(name, major) {
    await sleep(1)
    const [best] = Object.keys(this.data[name]).map((t) => new Version(t))
      .filter((v) => v.major === major).sort((a, b) => b.compare(a))
    return { name, version: best.text, dependencies: this.data[name][best.text] }
  }
}

async function resolveDependencies(registry, manifest) {
  await sleep(0)
  const lists = await Promise.all(manifest.dependencies.map(async ([name, major]) => {
    const dep = await registry.manifest(name, major)
    return [dep, ...await resolveDependencies(registry, dep)]
  }))
  return lists.flat()
}

async function main() {
  const plan = await resolveDependencies(new Registry(registryData), {
    dependencies: [['http-core', 1], ['cache-plugin', 0]],
  })
  console.log(`install plan: ${plan.map(({ name, version }) => `${name}@${version}`).join(', ')}`)
}

main()
