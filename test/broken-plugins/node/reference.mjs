#!/usr/bin/env node
// The correct plugin: passes every conformance check.
import { serve } from "./_core.mjs";
serve();
