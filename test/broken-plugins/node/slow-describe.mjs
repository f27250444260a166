#!/usr/bin/env node
// Fault: describe takes 6 s (fails describe).
import { serve } from "./_core.mjs";
serve({ slowDescribeMs: 6000 });
