import { randomBytes } from "node:crypto";

/** 32 random hex characters: reverse-request ids. */
export function randomHex(): string {
  return randomBytes(16).toString("hex");
}
