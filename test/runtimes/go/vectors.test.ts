/** The Go runtime (templates/go/internal/executa) against every runtime vector. */
import { spawnSync } from "node:child_process";
import { goPlugin, vectorSuite } from "../helpers.js";

const go = spawnSync("go", ["version"]).status === 0;
vectorSuite("Go", goPlugin, { skip: !go && "go is not installed" });
