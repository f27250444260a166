#!/usr/bin/env node
import "../dist/cli/executa.js";
