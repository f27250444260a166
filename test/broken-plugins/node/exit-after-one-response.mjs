#!/usr/bin/env node
// Fault: exits after writing its first response (fails lifecycle.alive).
import { serve } from "./_core.mjs";
serve({ exitAfterOneResponse: true });
