/**
 * Licenses as SPDX: a package's own expression when it is one, else its trove classifiers or its
 * free-text license field mapped to SPDX ids where the name says exactly one license (a bare
 * "BSD License" does not: it stays a named license).
 */
import parseSpdxExpression from "spdx-expression-parse";

/** Trove classifiers (the part after `License :: [OSI Approved ::]`) and common free-text names, lower-cased. */
const SPDX_BY_NAME: Record<string, string> = {
  "apache software license": "Apache-2.0",
  "apache 2": "Apache-2.0",
  "apache 2.0": "Apache-2.0",
  "apache license 2.0": "Apache-2.0",
  "apache license, version 2.0": "Apache-2.0",
  "apache license version 2.0": "Apache-2.0",
  "apache software license 2.0": "Apache-2.0",
  "boost software license 1.0 (bsl-1.0)": "BSL-1.0",
  "bsd 2-clause": "BSD-2-Clause",
  "bsd 2-clause license": "BSD-2-Clause",
  "simplified bsd": "BSD-2-Clause",
  "bsd 3-clause": "BSD-3-Clause",
  "bsd 3-clause license": "BSD-3-Clause",
  "3-clause bsd license": "BSD-3-Clause",
  "new bsd": "BSD-3-Clause",
  "new bsd license": "BSD-3-Clause",
  "modified bsd": "BSD-3-Clause",
  "cc0 1.0 universal (cc0 1.0) public domain dedication": "CC0-1.0",
  "eclipse public license 1.0 (epl-1.0)": "EPL-1.0",
  "eclipse public license 2.0 (epl-2.0)": "EPL-2.0",
  "european union public licence 1.2 (eupl 1.2)": "EUPL-1.2",
  "gnu affero general public license v3": "AGPL-3.0-only",
  "gnu affero general public license v3 or later (agplv3+)": "AGPL-3.0-or-later",
  "gnu general public license v2 (gplv2)": "GPL-2.0-only",
  "gnu general public license v2 or later (gplv2+)": "GPL-2.0-or-later",
  "gnu general public license v3 (gplv3)": "GPL-3.0-only",
  "gnu general public license v3 or later (gplv3+)": "GPL-3.0-or-later",
  "gnu lesser general public license v2 (lgplv2)": "LGPL-2.0-only",
  "gnu lesser general public license v2 or later (lgplv2+)": "LGPL-2.0-or-later",
  "gnu lesser general public license v3 (lgplv3)": "LGPL-3.0-only",
  "gnu lesser general public license v3 or later (lgplv3+)": "LGPL-3.0-or-later",
  "historical permission notice and disclaimer (hpnd)": "HPND",
  "isc license (iscl)": "ISC",
  "isc license": "ISC",
  "mit license": "MIT",
  "the mit license": "MIT",
  "mit no attribution license (mit-0)": "MIT-0",
  "mozilla public license 1.1 (mpl 1.1)": "MPL-1.1",
  "mozilla public license 2.0 (mpl 2.0)": "MPL-2.0",
  "python software foundation license": "PSF-2.0",
  psf: "PSF-2.0",
  "the unlicense (unlicense)": "Unlicense",
  "universal permissive license (upl)": "UPL-1.0",
  "zlib/libpng license": "Zlib",
};

function isExpression(text: string): boolean {
  try {
    parseSpdxExpression(text);
    return true;
  } catch {
    return false;
  }
}

/** One license text as an SPDX expression, or undefined when it names no one license exactly. */
export function spdxOf(text: string): string | undefined {
  const trimmed = text.trim().replace(/^License\s*::\s*(OSI Approved\s*::\s*)?/i, "");
  if (isExpression(trimmed)) return trimmed;
  return SPDX_BY_NAME[trimmed.toLowerCase()];
}

/**
 * The license of a Python distribution from its metadata: `License-Expression`, else the `License`
 * field or the license classifiers mapped to SPDX (several classifiers: all of them apply, AND),
 * else the text as the package states it.
 */
export function pythonLicense(meta: {
  expression?: string | null;
  text?: string | null;
  classifiers?: readonly string[];
}): string | undefined {
  if (meta.expression?.trim()) return meta.expression.trim();
  const text =
    meta.text?.trim() &&
    !meta.text.includes("\n") &&
    meta.text.length <= 80 &&
    meta.text.trim().toUpperCase() !== "UNKNOWN"
      ? meta.text.trim()
      : undefined;
  const fromText = text ? spdxOf(text) : undefined;
  if (fromText) return fromText;
  const classifiers = (meta.classifiers ?? []).filter((c) => c.startsWith("License ::"));
  const ids = [...new Set(classifiers.map(spdxOf))];
  if (ids.length && ids.every((id): id is string => Boolean(id)))
    return ids.length === 1 ? ids[0] : ids.map((id) => (id.includes(" ") ? `(${id})` : id)).join(" AND ");
  return text ?? classifiers[0]?.split("::").at(-1)?.trim();
}
