#!/usr/bin/env node
import "../dist/cli/create-executa.js";
