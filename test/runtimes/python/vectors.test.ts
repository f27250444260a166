/** The Python runtime (templates/python/__pyModule__/executa) against every runtime vector. */
import { pythonPlugin, vectorSuite } from "../helpers.js";
import { requires } from "../../support/requires.js";

vectorSuite("Python", pythonPlugin, requires("python3"));
