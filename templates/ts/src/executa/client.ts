/** The typed host client of one invoke: a helper per host service (docs/host-services.md), on `request`. */
import { agentClient } from "./agent.js";
import type { InvokeRequests } from "./host.js";
import { embeddingsClient, imageClient } from "./models.js";
import { sample } from "./sampling.js";
import { storageClient } from "./storage.js";
import type { HostClient } from "./types.js";
import { filesClient, upload } from "./uploads.js";
import { webClient } from "./web.js";

export function hostClient(r: InvokeRequests): HostClient {
  return {
    request: r.request,
    sample: (request) => sample(r, request),
    agent: agentClient(r),
    embeddings: embeddingsClient(r),
    image: imageClient(r),
    upload: (bytes, options) => upload(r, bytes, options),
    files: filesClient(r),
    storage: storageClient(r),
    web: webClient(r),
  };
}
