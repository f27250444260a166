/** The Go runtime (templates/go/internal/executa) against every runtime vector. */
import { goPlugin, vectorSuite } from "../helpers.js";
import { requires } from "../../support/requires.js";

vectorSuite("Go", goPlugin, requires("go"));
