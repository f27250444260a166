declare module "spdx-expression-parse" {
  /** Parses an SPDX license expression; throws when it is not one. */
  export default function parse(expression: string): unknown;
}
