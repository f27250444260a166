import assert from "node:assert/strict";
import { test } from "node:test";
import { unpublishedDependency } from "./steps.js";

test("the dependency the registry lacks is read from npm's 404 (npm 10 and 11 wordings) and ETARGET errors", () => {
  const npm11 =
    "npm error code E404\nnpm error 404 Not Found - GET https://registry.example/create-executa - Not found\nnpm error 404\nnpm error 404  The requested resource 'create-executa@^0.1.0' could not be found or you do not have permission to access it.";
  const npm10 = "npm ERR! code E404\nnpm ERR! 404  'create-executa@^0.1.0' is not in this registry.";
  const notarget =
    "npm error code ETARGET\nnpm error notarget No matching version found for create-executa@^0.2.0.\nnpm error notarget In most cases you or one of your dependencies are requesting";
  assert.deepEqual([npm11, npm10, notarget].map(unpublishedDependency), [
    "create-executa@^0.1.0",
    "create-executa@^0.1.0",
    "create-executa@^0.2.0",
  ]);
  assert.equal(unpublishedDependency("npm error code ECONNREFUSED\nnpm error errno ECONNREFUSED"), undefined);
});
