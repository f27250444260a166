/**
 * The plugin's tools. Each exported function tagged `@tool` becomes a tool in manifest.json:
 * its summary is the description, `@timeout` its timeout in seconds, and each documented
 * property (or `@param`) a parameter. Run `npm run manifest` after changing them.
 */
import { ToolError } from "./executa/index.js";

/**
 * Greet someone by name.
 * @tool
 */
export function greet({
  name,
  greeting = "Hello",
}: {
  /** Who to greet. */
  name: string;
  /** The word to greet them with. */
  greeting?: string;
}): { message: string } {
  if (!name.trim()) throw new ToolError("name must not be empty");
  return { message: `${greeting}, ${name}!` };
}
