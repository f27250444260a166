import assert from "node:assert/strict";
import { it } from "node:test";
import { Access } from "./access.js";
import { refusal } from "./guard.js";

it("a code works once and not after its lifetime; the token is admitted from the cookie of this port or the header only", async () => {
  const access = new Access(() => 4321, 50);
  const spent: string[] = [];
  const code = access.newCode(() => spent.push("first"));
  assert.equal(access.redeem(code), true);
  assert.equal(access.redeem(code), false, "a second use");
  assert.deepEqual(spent, ["first"]);
  const late = access.newCode(() => spent.push("late"));
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(access.redeem(late), false, "an expired code");
  assert.deepEqual(spent, ["first", "late"], "an expired code is spent too");
  assert.match(access.setCookie(), /^executa-inspect-4321=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
  assert.equal(access.admits({ headers: { cookie: `other=1; executa-inspect-4321=${access.token}` } }), true);
  assert.equal(
    access.admits({ headers: { cookie: `executa-inspect-4322=${access.token}` } }),
    false,
    "another port's cookie",
  );
  assert.equal(access.admits({ headers: { "x-executa-token": access.token } }), true);
  assert.equal(access.admits({ headers: { "x-executa-token": `${access.token}x` } }), false);
});

it("the rebinding guard takes a Host without the port on port 80, the way browsers send it", () => {
  const access = new Access(() => 80);
  const req = (host: string) => ({
    method: "GET",
    url: "/api/state",
    headers: { host, "x-executa-token": access.token },
  });
  assert.equal(refusal(req("127.0.0.1"), access, 80), undefined);
  assert.equal(refusal(req("localhost"), access, 80), undefined);
  assert.equal(refusal(req("127.0.0.1:80"), access, 80), undefined);
  assert.equal(refusal(req("127.0.0.1"), access, 8080)?.status, 403, "no port means 80 only");
  assert.equal(refusal(req("evil.example"), access, 80)?.status, 403);
});
