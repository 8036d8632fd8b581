// The canonicalizer on its own: RFC 8785's published examples, the
// tokenizer's edges and the order in which refusals are reported.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaError, canonicalResult, canonicalize, hashResult, sha256Hex } from "../dist/index.js";

const KEYS = { matchId: 42, sessionNonce: "nonce-abc", winner: "76561198000000001" };
const refusal = (code) => (e) => e instanceof ArenaError && e.code === code;

test("RFC 8785 3.2.2: the sample object", () => {
  const input = `{
    "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
    "literals": [null, true, false]
  }`;
  assert.equal(
    canonicalize(input),
    String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
  );
});

test("RFC 8785 3.2.3: members sorted by UTF-16 code units", () => {
  const input = String.raw`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`;
  const order = [
    ["\r", "Carriage Return"], ["1", "One"], ["\u0080", "Control"], ["\u00f6", "Latin Small Letter O With Diaeresis"],
    ["\u20ac", "Euro Sign"], ["\ud83d\ude00", "Emoji: Grinning Face"], ["\ufb33", "Hebrew Letter Dalet With Dagesh"],
  ];
  assert.equal(canonicalize(input), "{" + order.map(([k, v]) => JSON.stringify(k) + ":" + JSON.stringify(v)).join(",") + "}");
  // UTF-16 order, not code point order: the emoji (U+1F600) sorts before U+E000.
  assert.equal(canonicalize('{"\ue000":1,"😀":2}'), '{"😀":2,"\ue000":1}');
});

test("RFC 8785 appendix B: IEEE doubles written as ECMAScript does", () => {
  const table = [
    ["0000000000000000", "0"], ["8000000000000000", "0"], ["0000000000000001", "5e-324"], ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"], ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"], ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"], ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"], ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"], ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"], ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"], ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"], ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"], ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"], ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];
  for (const [bits, want] of table) {
    const n = Buffer.from(bits, "hex").readDoubleBE(0);
    // 21 significant digits and an exponent: the token is read as a double.
    assert.equal(canonicalize(`{"n":${n.toExponential(20)}}`), `{"n":${want}}`, bits);
  }
});

test("numbers: integers kept, fractions and exponents read as doubles", () => {
  const cases = [
    ["1.0", "1"], ["-0", "0"], ["-0.0", "0"], ["1e21", "1e+21"], ["1E-7", "1e-7"], ["5e-324", "5e-324"],
    ["0.30000000000000004", "0.30000000000000004"], ["100", "100"], ["1e2", "100"], ["-1.5e0", "-1.5"],
    ["9007199254740991", "9007199254740991"], ["-9007199254740991", "-9007199254740991"],
    ["9007199254740993.0", "9007199254740992"], ["1e-400", "0"], ["123456789012345678901234567890e-10", "12345678901234567000"],
  ];
  for (const [token, want] of cases) assert.equal(canonicalize(`{"n":${token}}`), `{"n":${want}}`, token);
});

test("strings: only quote, backslash and controls escaped", () => {
  assert.equal(canonicalize(String.raw`{"s":"\u0000\u0001\b\t\n\u000b\f\r\u001f \"\\\/<>&\u007f\u2028\u2029é😀"}`),
    '{"s":"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f \\"\\\\/<>&\u007f\u2028\u2029é😀"}');
  assert.equal(canonicalize(String.raw`{"\u0061":"\u00E9"}`), '{"a":"é"}');
});

test("nesting and whitespace", () => {
  assert.equal(canonicalize(' \t\r\n{ "b" : [ { "d" : 1 , "c" : [ ] } , { } ] , "a" : null } \n'), '{"a":null,"b":[{"c":[],"d":1},{}]}');
  const deep = '{"a":' + "[".repeat(9999) + "]".repeat(9999) + "}";
  assert.equal(canonicalize(deep), deep);
  assert.throws(() => canonicalize('{"a":' + "[".repeat(10000) + "]".repeat(10000) + "}"), refusal("invalid_json"));
});

test("refusals: each reason code", () => {
  const cases = [
    ["", "invalid_json"], ["{", "invalid_json"], ['{"a":1}x', "invalid_json"], ['{"a":1}{}', "invalid_json"], ["{'a':1}", "invalid_json"],
    ['{"a":01}', "invalid_json"], ['{"a":1.}', "invalid_json"], ['{"a":.5}', "invalid_json"], ['{"a":+1}', "invalid_json"],
    ['{"a":NaN}', "invalid_json"], ['{"a":Infinity}', "invalid_json"], ['{"a":"\u0001"}', "invalid_json"], ['{"a":"\\x41"}', "invalid_json"],
    ['{"a":"\\u12"}', "invalid_json"], ['{"a":tru}', "invalid_json"], ['{"a":1,}', "invalid_json"], ['{"a":[1,]}', "invalid_json"],
    ['\ufeff{"a":1}', "invalid_json"], ['{"a" 1}', "invalid_json"], ["{1:2}", "invalid_json"],
    ["[]", "not_object"], ["1", "not_object"], ['"s"', "not_object"], ["null", "not_object"], ['[{"a":1,"a":2}]', "not_object"],
    ['{"a":1,"a":2}', "duplicate_key"], ['{"x":{"a":1,"\\u0061":2}}', "duplicate_key"], ['{"x":[{"k":1,"k":1}]}', "duplicate_key"],
    ['{"a":"\\ud800"}', "lone_surrogate"], ['{"\\udc00":1}', "lone_surrogate"], ['{"a":"\\ud83d x"}', "lone_surrogate"], ['{"a":"\\ude00\\ud83d"}', "lone_surrogate"],
    ['{"a":9007199254740992}', "unsafe_integer"], ['{"a":-9007199254740992}', "unsafe_integer"], ['{"a":12345678901234567890}', "unsafe_integer"],
    ['{"a":1e400}', "non_finite"], ['{"a":-1.8e308}', "non_finite"],
  ];
  for (const [input, code] of cases) assert.throws(() => canonicalize(input), refusal(code), `${JSON.stringify(input)} should be ${code}`);
});

test("refusals: a syntax error wins over I-JSON refusals, and those go in text order", () => {
  assert.throws(() => canonicalize('{"a":1,"a":2,'), refusal("invalid_json"));
  assert.throws(() => canonicalize('[{"a":1e400}]'), refusal("not_object"));
  assert.throws(() => canonicalize('{"a":1e400,"b":"\\ud800","a":9007199254740993}'), refusal("non_finite"));
  assert.throws(() => canonicalize('{"b":"\\ud800","a":1e400}'), refusal("lone_surrogate"));
});

test("input as UTF-8 bytes and as a JS value", () => {
  assert.equal(canonicalize(new TextEncoder().encode('{"é":"😀","a":1}')), '{"a":1,"é":"😀"}');
  assert.throws(() => canonicalize(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), refusal("invalid_json"));
  assert.throws(() => canonicalize(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])), refusal("invalid_json"));
  assert.equal(canonicalize({ b: [1.5, true, null], a: { d: "x", c: 1e21 } }), '{"a":{"c":1e+21,"d":"x"},"b":[1.5,true,null]}');
  assert.throws(() => canonicalize({ a: NaN }), refusal("non_finite"));
  assert.throws(() => canonicalize({ a: [Infinity] }), refusal("non_finite"));
  assert.throws(() => canonicalize({ a: 2 ** 60 }), refusal("unsafe_integer"));
  assert.throws(() => canonicalize({ a: 2n ** 60n }), refusal("unsafe_integer"));
  assert.equal(canonicalize({ a: 7n }), '{"a":7}');
  assert.throws(() => canonicalize({ a: "\ud800" }), refusal("lone_surrogate"));
  assert.throws(() => canonicalize('{"a":"\ud800"}'), refusal("lone_surrogate"));
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => canonicalize(cyclic), refusal("invalid_json"));
});

test("canonicalResult merges the reserved keys over the game's", () => {
  const out = canonicalResult('{"winner":"someone","matchId":7,"zeta":1,"sessionNonce":{"x":1},"alpha":[]}', KEYS);
  assert.equal(out, '{"alpha":[],"matchId":42,"sessionNonce":"nonce-abc","winner":"76561198000000001","zeta":1}');
  assert.equal(canonicalResult("{}", KEYS), '{"matchId":42,"sessionNonce":"nonce-abc","winner":"76561198000000001"}');
  // A duplicate of a reserved key is still a duplicate.
  assert.throws(() => canonicalResult('{"winner":"a","winner":"b"}', KEYS), refusal("duplicate_key"));
});

test("canonicalResult checks the reserved values", () => {
  const bad = [
    [{ ...KEYS, matchId: 0 }, "invalid_match"], [{ ...KEYS, matchId: -1 }, "invalid_match"], [{ ...KEYS, matchId: 1.5 }, "invalid_match"],
    [{ ...KEYS, matchId: 2 ** 53 }, "invalid_match"], [{ ...KEYS, matchId: NaN }, "invalid_match"],
    [{ ...KEYS, sessionNonce: "" }, "invalid_nonce"],
    [{ ...KEYS, winner: "" }, "invalid_winner"], [{ ...KEYS, winner: "7656119800000000" }, "invalid_winner"],
    [{ ...KEYS, winner: "765611980000000012" }, "invalid_winner"], [{ ...KEYS, winner: "7656119800000000x" }, "invalid_winner"],
  ];
  for (const [keys, code] of bad) assert.throws(() => canonicalResult("{}", keys), refusal(code), JSON.stringify(keys));
  // The reserved values are judged first, in this order, then the JSON.
  assert.throws(() => canonicalResult("[", { ...KEYS, winner: "" }), refusal("invalid_winner"));
  assert.throws(() => canonicalResult('{"a":1,"a":2}', { ...KEYS, sessionNonce: "", winner: "" }), refusal("invalid_nonce"));
  assert.throws(() => canonicalResult("[]", { matchId: 0, sessionNonce: "", winner: "" }), refusal("invalid_match"));
  assert.equal(canonicalResult("{}", { ...KEYS, matchId: 9007199254740991 }), '{"matchId":9007199254740991,"sessionNonce":"nonce-abc","winner":"76561198000000001"}');
});

test("sha256Hex is over the UTF-8 bytes, lowercase hex", async () => {
  assert.equal(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(await sha256Hex("é"), await sha256Hex(new Uint8Array([0xc3, 0xa9])));
  const { canonical, sha256 } = await hashResult('{"b":2,"a":1}', KEYS);
  assert.equal(canonical, '{"a":1,"b":2,"matchId":42,"sessionNonce":"nonce-abc","winner":"76561198000000001"}');
  assert.match(sha256, /^[0-9a-f]{64}$/);
  assert.equal(sha256, await sha256Hex(canonical));
});
