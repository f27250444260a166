/** The mock host's storage, browsable and editable: the key-value entries and the files/* objects of each scope. */
import type { StorageListing } from "../../inspect/wire.js";
import { type ApiFailure, fetchBlob, get, post } from "../api.js";
import { download, fill, formatBytes, h } from "../dom.js";
import { store } from "../store.js";

const SCOPES = ["user", "app", "tool"] as const;
const scopeSelect = () =>
  h(
    "select",
    { "aria-label": "scope" },
    SCOPES.map((s) => h("option", { value: s, selected: s === "app" }, s)),
  );

export function storagePanel(): HTMLElement {
  const kvTable = h("tbody");
  const fileTable = h("tbody");
  const error = h("div", { class: "error-line", role: "alert" });
  const fail = (e: unknown) => fill(error, (e as ApiFailure).message);

  const render = (listing: StorageListing) => {
    fill(error);
    fill(
      kvTable,
      listing.kv.length
        ? listing.kv.map((e) =>
            h(
              "tr",
              { "data-key": e.key, "data-scope": e.scope },
              h("td", null, e.scope),
              h("td", null, e.key),
              h("td", null, h("code", null, JSON.stringify(e.value).slice(0, 300))),
              h("td", null, formatBytes(e.size)),
              h(
                "td",
                null,
                h(
                  "button",
                  {
                    type: "button",
                    class: "small",
                    onclick: () => {
                      kvScope.value = e.scope;
                      kvKey.value = e.key;
                      kvValue.value = JSON.stringify(e.value, null, 2);
                    },
                  },
                  "edit",
                ),
                h(
                  "button",
                  {
                    type: "button",
                    class: "small",
                    onclick: () =>
                      void post<StorageListing>("/api/storage/kv-delete", { scope: e.scope, key: e.key }).then(
                        render,
                        fail,
                      ),
                  },
                  "delete",
                ),
              ),
            ),
          )
        : h("tr", null, h("td", { colSpan: 5, class: "muted" }, "no keys")),
    );
    fill(
      fileTable,
      listing.files.length
        ? listing.files.map((f) =>
            h(
              "tr",
              { "data-path": f.path, "data-scope": f.scope },
              h("td", null, f.scope),
              h("td", null, f.path),
              h("td", null, f.contentType),
              h("td", null, formatBytes(f.size)),
              h(
                "td",
                null,
                h(
                  "button",
                  {
                    type: "button",
                    class: "small",
                    onclick: () =>
                      void fetchBlob(
                        "GET",
                        `/api/storage/file?scope=${encodeURIComponent(f.scope)}&path=${encodeURIComponent(f.path)}`,
                      ).then((b) => download(f.path.split("/").pop() ?? "file", b), fail),
                  },
                  "download",
                ),
                h(
                  "button",
                  {
                    type: "button",
                    class: "small",
                    onclick: () =>
                      void post<StorageListing>("/api/storage/file-delete", { scope: f.scope, path: f.path }).then(
                        render,
                        fail,
                      ),
                  },
                  "delete",
                ),
              ),
            ),
          )
        : h("tr", null, h("td", { colSpan: 5, class: "muted" }, "no files")),
    );
  };
  const reload = () => get<StorageListing>("/api/storage").then(render, fail);

  const kvScope = scopeSelect();
  const kvKey = h("input", { type: "text", placeholder: "key", "aria-label": "key" });
  const kvValue = h("textarea", {
    rows: 2,
    class: "json",
    placeholder: '"a JSON value"',
    "aria-label": "value (JSON)",
  });
  const setKey = () => {
    let value: unknown;
    try {
      value = JSON.parse(kvValue.value);
    } catch (e) {
      return fill(error, `the value is not JSON: ${(e as Error).message}`);
    }
    void post<StorageListing>("/api/storage/kv-set", { scope: kvScope.value, key: kvKey.value, value }).then(
      render,
      fail,
    );
  };

  const fileScope = scopeSelect();
  const filePath = h("input", { type: "text", placeholder: "path/in/scope.txt", "aria-label": "file path" });
  const fileInput = h("input", { type: "file", "aria-label": "file to upload" });
  const fileText = h("textarea", { rows: 2, placeholder: "or type the file's text", "aria-label": "file text" });
  const writeFile = async () => {
    const file = fileInput.files?.[0];
    const path = filePath.value || file?.name || "";
    let body: Record<string, unknown>;
    if (file) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      body = {
        scope: fileScope.value,
        path,
        base64: btoa(binary),
        contentType: file.type || "application/octet-stream",
      };
    } else body = { scope: fileScope.value, path, text: fileText.value, contentType: "text/plain" };
    await post<StorageListing>("/api/storage/file-write", body).then(render, fail);
  };

  // The plugin's own storage calls change what is there: reload after each answered one.
  let lastSeen = 0;
  store.on("trace", (entries) => {
    const last = entries[entries.length - 1];
    if (!last || last.n <= lastSeen) return;
    const fresh = entries.slice(-50).filter((e) => e.n > lastSeen);
    lastSeen = last.n;
    if (fresh.some((e) => e.dir === "send" && e.reverse && /^(storage|files)\//.test(e.method ?? ""))) void reload();
  });

  void reload();
  return h(
    "section",
    { class: "storage", "aria-label": "storage" },
    h("h3", null, "Storage ", h("button", { type: "button", class: "small", onclick: () => void reload() }, "reload")),
    error,
    h("h4", null, "Keys (storage/*)"),
    h(
      "table",
      null,
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ["scope", "key", "value", "size", ""].map((c) => h("th", null, c)),
        ),
      ),
      kvTable,
    ),
    h(
      "div",
      { class: "inline-form" },
      kvScope,
      kvKey,
      kvValue,
      h("button", { type: "button", onclick: setKey }, "Set key"),
    ),
    h("h4", null, "Files (files/*)"),
    h(
      "table",
      null,
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ["scope", "path", "type", "size", ""].map((c) => h("th", null, c)),
        ),
      ),
      fileTable,
    ),
    h(
      "div",
      { class: "inline-form" },
      fileScope,
      filePath,
      fileInput,
      fileText,
      h("button", { type: "button", onclick: () => void writeFile() }, "Write file"),
    ),
  );
}
