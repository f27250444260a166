/** The TypeScript runtime (templates/ts/src/executa) against every runtime vector. */
import { tsPlugin, vectorSuite } from "../helpers.js";

vectorSuite("TypeScript", tsPlugin);
