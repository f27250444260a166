#!/usr/bin/env node
// Fault: answers frames that have no id (fails jsonrpc.notification).
import { serve } from "./_core.mjs";
serve({ answerNotifications: true });
