/**
 * The version of the runtime create-executa vendors into every project it generates (TypeScript
 * `src/executa/`, Python `<module>/executa/`, Go `internal/executa/`): one number for the three,
 * since they implement one contract (docs/runtime-contract.md).
 *
 * Bump it with every change to a file of any of the three runtimes, then run
 * `npm run build && node dist/test/upgrade/regenerate-runtime-hashes.js` (it records the new
 * version's file hashes in src/scaffold/upgrade/runtime-hashes.json, which `executa upgrade`
 * reads) and add the version's section to docs/runtime-changes.md. test/upgrade/versions.test.ts
 * fails until all three are done.
 */
export const RUNTIME_VERSION = 2;
