// k8s-validate.mjs - check Kubernetes objects against the OpenAPI schemas
// of the Kubernetes API, as the npm package kubernetes-models compiles
// them (one model class per kind, whose validate() throws on a schema
// violation).
//
//   node k8s-validate.mjs PKGDIR DOCS.json
//
// PKGDIR is the installed kubernetes-models package; DOCS.json a JSON
// array of objects (the documents of a manifest).  The class of each is
// found through the package's export map by apiVersion, then by kind: an
// apiVersion or kind the package does not know is an error, never a pass.
// Prints one line per document, "ok N APIVERSION KIND NAME" or
// "FAIL N ...: why"; exit 0 when every document is valid, 1 when one is
// not, 2 on bad arguments.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkgdir, docsfile] = process.argv.slice(2);
if (!pkgdir || !docsfile) {
  console.error("usage: node k8s-validate.mjs PKGDIR DOCS.json");
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(pkgdir, "package.json"), "utf8"));
const docs = JSON.parse(readFileSync(docsfile, "utf8"));
if (!Array.isArray(docs) || docs.length === 0) {
  console.error(`${docsfile}: expected a non-empty array of objects`);
  process.exit(2);
}

// The module of an API group version: its entry in the export map
// ("./v1" for the core group, "./apps/v1", "./rbac.authorization.k8s.io/v1").
async function moduleOf(apiVersion) {
  if (!/^([a-z0-9.-]+\/)?v[0-9]+[a-z0-9]*$/.test(apiVersion)) return null;
  const entry = pkg.exports["./" + apiVersion];
  if (!entry || !entry.import) return null;
  return import(pathToFileURL(join(pkgdir, entry.import)).href);
}

let bad = 0;
for (const [i, doc] of docs.entries()) {
  const n = i + 1;
  const fail = (why) => {
    console.log(`FAIL ${n}: ${why}`);
    bad++;
  };
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    fail("not a mapping");
    continue;
  }
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    fail("no apiVersion or kind");
    continue;
  }
  const mod = await moduleOf(apiVersion);
  if (!mod) {
    fail(`apiVersion '${apiVersion}' is not in ${pkg.name} ${pkg.version}`);
    continue;
  }
  // Only the top-level kinds carry their apiVersion and kind: this keeps
  // out the classes of parts (Container, PodSpec) the module also exports.
  const cls = Object.hasOwn(mod, kind) ? mod[kind] : undefined;
  if (typeof cls !== "function" || cls.apiVersion !== apiVersion || cls.kind !== kind) {
    fail(`kind '${kind}' is not in apiVersion '${apiVersion}' of ${pkg.name} ${pkg.version}`);
    continue;
  }
  const name = doc.metadata && doc.metadata.name;
  try {
    new cls(doc).validate();
  } catch (e) {
    fail(`${apiVersion} ${kind} '${name}': ${e.message}`);
    continue;
  }
  console.log(`ok ${n} ${apiVersion} ${kind} ${name}`);
}
process.exit(bad ? 1 : 0);
