#!/usr/bin/env node
// Fault: health answers {"status": "healthy"} (fails health).
import { serve } from "./_core.mjs";
serve({ healthStatus: "healthy" });
