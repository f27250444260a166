#!/usr/bin/env node
import "../dist/src/cli/create-executa.js";
