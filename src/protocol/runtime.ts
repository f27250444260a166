/**
 * The version of the runtime create-executa vendors into every project it generates (TypeScript
 * `src/executa/`, Python `<module>/executa/`, Go `internal/executa/`): one number for the three,
 * since they implement one contract (docs/runtime-contract.md).
 *
 * Bump it with every change to a file of any of the three runtimes, add the version's section to
 * docs/runtime-changes.md, and record its hashes (`node scripts/runtime-hashes.mjs`): every generated
 * project records it, with the sha256 of each runtime file, in its runtime folder's runtime.lock.json,
 * and `executa upgrade` brings an older project to it.
 */
export const RUNTIME_VERSION = 5;
