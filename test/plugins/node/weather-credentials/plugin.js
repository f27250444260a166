#!/usr/bin/env node
/**
 * Weather with credentials: the API key comes from the invoke's context.credentials (Anna injects
 * it), else from the environment (local development). Like the public credential example, a
 * missing key is reported inside a successful result, with a hint, and the key is shown masked.
 */
"use strict";

const readline = require("readline");

const MANIFEST = {
  name: "weather-credentials",
  display_name: "Weather (API key)",
  version: "0.4.0",
  description: "Current weather for a city, from a weather service that needs an API key.",
  author: "Anna Developer",
  tools: [
    {
      name: "get_weather",
      description: "Current temperature and conditions for a city",
      parameters: [
        { name: "city", type: "string", description: "City name, e.g. Berlin", required: true },
        { name: "units", type: "string", description: "metric or imperial", required: false, default: "metric" },
      ],
    },
    {
      name: "check_connection",
      description: "Show whether an API key is configured (masked)",
      parameters: [],
    },
  ],
  credentials: [
    {
      name: "WEATHER_API_KEY",
      display_name: "Weather API key",
      description: "Get one at https://example.com/weather/keys",
      required: true,
      sensitive: true,
    },
  ],
  runtime: { type: "npm", min_version: "1.0.0" },
};

function getCredential(credentials, name, fallback) {
  return (credentials && credentials[name]) || process.env[name] || fallback;
}

function mask(value) {
  if (value.length <= 8) return "****";
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

function notConfigured() {
  return {
    error: "WEATHER_API_KEY not configured",
    hint: "Set it in Anna under the plugin's credentials, or export WEATHER_API_KEY for local development",
  };
}

// A stand-in for the weather service: deterministic per city.
function lookup(city, units) {
  let h = 0;
  for (const ch of city.toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const celsius = (h % 35) - 5;
  return {
    city,
    temperature: units === "imperial" ? Math.round(celsius * 1.8 + 32) : celsius,
    units,
    conditions: ["sunny", "cloudy", "rain", "snow"][h % 4],
  };
}

const TOOLS = {
  get_weather(args, credentials) {
    const key = getCredential(credentials, "WEATHER_API_KEY");
    if (!key) return notConfigured();
    if (!args.city) return { error: "city is required" };
    return lookup(String(args.city), args.units === "imperial" ? "imperial" : "metric");
  },
  check_connection(_args, credentials) {
    const key = getCredential(credentials, "WEATHER_API_KEY");
    if (!key) return notConfigured();
    return { configured: true, key_preview: mask(key) };
  },
};

function handle(req) {
  const { id, method } = req;
  const params = req.params || {};
  if (method === "describe") return { jsonrpc: "2.0", id, result: MANIFEST };
  if (method === "health") return { jsonrpc: "2.0", id, result: { status: "ready", message: "", details: {} } };
  if (method === "invoke") {
    const fn = TOOLS[params.tool];
    if (!fn) return { jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${params.tool}` } };
    const context = params.context || {};
    try {
      return { jsonrpc: "2.0", id, result: { success: true, data: fn(params.arguments || {}, context.credentials), tool: params.tool } };
    } catch (err) {
      return { jsonrpc: "2.0", id, error: { code: -32603, message: `Tool execution failed: ${err.message}` } };
    }
  }
  return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }) + "\n");
    return;
  }
  if (req === null || typeof req !== "object" || Array.isArray(req)) {
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } }) + "\n");
    return;
  }
  const res = handle(req);
  if (req.id !== undefined && req.id !== null) process.stdout.write(JSON.stringify(res) + "\n");
});
process.stderr.write("weather-credentials plugin started\n");
