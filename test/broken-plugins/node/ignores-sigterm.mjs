#!/usr/bin/env node
// Fault: a SIGTERM handler that does nothing (fails lifecycle.sigterm).
import { serve } from "./_core.mjs";
serve({ ignoreSigterm: true });
