/** The Python runtime (templates/python/__pyModule__/executa) against every runtime vector. */
import { spawnSync } from "node:child_process";
import { pythonPlugin, vectorSuite } from "../helpers.js";

const python = spawnSync("python3", ["--version"]).status === 0;
vectorSuite("Python", pythonPlugin, { skip: !python && "python3 is not installed" });
