import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { assertRunnableEnv, ENV_VARIABLES, parseEnv, runtimeEnvProblems } from "@/lib/env.mjs";

describe("lib/env.mjs", () => {
  it("works with no configuration at all (demo defaults)", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBe("file:./data/ringside.db");
    expect(env.RING_API_BASE_URL).toBe("http://localhost:4010");
    expect(env.RING_AUTHORIZE_URL).toBe("http://localhost:4010/oauth/authorize");
    expect(env.RING_TOKEN_URL).toBe("http://localhost:4010/oauth/token");
    expect(env.RING_SCOPES).toHaveLength(9);
    expect(env.IS_EMULATOR_DEFAULT).toBe(true);
  });

  it("derives the ring URLs from the bases, and explicit URLs win (alternative authorize address, other portal's token URL)", () => {
    const env = parseEnv({
      RING_API_BASE_URL: "https://api.example.test/",
      RING_OAUTH_BASE_URL: "https://cloud.example.test",
      RING_TOKEN_URL: "https://moi.example.test/oauth/v2/ext/oauth-token",
      RING_CLIENT_ID: "abc",
    });
    expect(env.RING_API_BASE_URL).toBe("https://api.example.test");
    expect(env.RING_AUTHORIZE_URL).toBe("https://cloud.example.test/oauth/authorize");
    expect(env.RING_TOKEN_URL).toBe("https://moi.example.test/oauth/v2/ext/oauth-token");
    expect(env.IS_EMULATOR_DEFAULT).toBe(false);
  });

  it("the database follows DATABASE_URL: a SQLite file or a PostgreSQL server, with its pool size and the job lease", () => {
    expect(parseEnv({}).DATABASE_URL).toBe("file:./data/ringside.db");
    const pg = parseEnv({ DATABASE_URL: "postgresql://ringside:secret@db.internal:5432/ringside", DATABASE_POOL_SIZE: "20", JOB_LEASE_SECONDS: "30" });
    expect(pg).toMatchObject({ DATABASE_URL: "postgresql://ringside:secret@db.internal:5432/ringside", DATABASE_POOL_SIZE: 20, JOB_LEASE_SECONDS: 30 });
    expect(parseEnv({ DATABASE_URL: "postgres://h/db" }).DATABASE_URL).toBe("postgres://h/db");
    expect(parseEnv({}).DATABASE_POOL_SIZE).toBe(10);
    expect(parseEnv({}).JOB_LEASE_SECONDS).toBe(120);
    expect(() => parseEnv({ DATABASE_URL: "mysql://h/db" })).toThrowError(/DATABASE_URL/);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: "0" })).toThrowError(/DATABASE_POOL_SIZE/);
    expect(() => parseEnv({ JOB_LEASE_SECONDS: "2" })).toThrowError(/JOB_LEASE_SECONDS/);
  });

  it("names every bad variable in one clear message", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", PORT: "99999", RING_SCOPES: "daily bogus", PUBLIC_URL: "not a url" })).toThrowError(
      /DATABASE_URL[\s\S]*PORT|PORT[\s\S]*DATABASE_URL/,
    );
    try {
      parseEnv({ DATABASE_URL: "file:./x.db?mode=ro", TOKEN_ENCRYPTION_KEY: "short" });
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain("DATABASE_URL");
      expect(msg).toContain("TOKEN_ENCRYPTION_KEY");
      expect(msg).toContain(".env.example");
    }
  });

  it("the mail server for e-mail alerts: off without SMTP_HOST, TLS mode by port, every mistake named", () => {
    expect(parseEnv({}).SMTP).toBeNull();
    expect(parseEnv({ SMTP_HOST: "mail.example.test", SMTP_FROM: "Ringside <ringside@example.test>" }).SMTP).toEqual({
      host: "mail.example.test",
      port: 587,
      secure: "starttls",
      user: undefined,
      password: undefined,
      from: "Ringside <ringside@example.test>",
    });
    expect(parseEnv({ SMTP_HOST: "mail.example.test", SMTP_PORT: "465", SMTP_FROM: "a@b.test" }).SMTP).toMatchObject({ port: 465, secure: "tls" });
    expect(
      parseEnv({ SMTP_HOST: "127.0.0.1", SMTP_PORT: "25", SMTP_SECURE: "none", SMTP_FROM: "a@b.test", SMTP_USER: "u", SMTP_PASSWORD: "p" }).SMTP,
    ).toMatchObject({
      port: 25,
      secure: "none",
      user: "u",
      password: "p",
    });
    expect(() => parseEnv({ SMTP_HOST: "mail.example.test" })).toThrowError(/SMTP_FROM: is required with SMTP_HOST/);
    expect(() => parseEnv({ SMTP_HOST: "mail.example.test", SMTP_FROM: "a@b.test", SMTP_USER: "u" })).toThrowError(
      /SMTP_PASSWORD: SMTP_USER and SMTP_PASSWORD go together/,
    );
    expect(() => parseEnv({ SMTP_HOST: "mail example", SMTP_FROM: "a@b.test" })).toThrowError(/SMTP_HOST/);
    expect(() => parseEnv({ SMTP_HOST: "mail.example.test", SMTP_FROM: "not an address" })).toThrowError(/SMTP_FROM/);
    expect(() => parseEnv({ SMTP_HOST: "mail.example.test", SMTP_FROM: "a@b.test", SMTP_SECURE: "ssl" })).toThrowError(/SMTP_SECURE/);
  });

  it("every variable is in the README's configuration table and in .env.example", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Running in production"));
    const example = fs.readFileSync(".env.example", "utf8");
    const documented = ENV_VARIABLES.filter((v) => v !== "NODE_ENV");
    expect(documented.length).toBeGreaterThan(30);
    expect(documented.filter((v) => !table.includes(`\`${v}\``))).toEqual([]);
    expect(documented.filter((v) => !new RegExp(`^#? ?${v}=`, "m").test(example))).toEqual([]);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ PORT: "", DATA_DIR: "" }).PORT).toBe(3000);
  });

  it("splits the e-mail allowlist and lower-cases it", () => {
    expect(parseEnv({ ALLOWED_EMAILS: " A@x.test, *@family.test ,," }).ALLOWED_EMAILS).toEqual(["a@x.test", "*@family.test"]);
  });

  it("outside demo mode a server needs the app's own client secret: one message naming RING_CLIENT_SECRET", () => {
    const none = parseEnv({});
    expect(none.RING_CLIENT_SECRET).toBeUndefined(); // no fallback to the public demo secret
    expect(() => assertRunnableEnv(none)).toThrowError(/RING_CLIENT_SECRET/);
    const demoSecret = parseEnv({ RING_CLIENT_SECRET: "ringside-demo-secret" });
    expect(runtimeEnvProblems(demoSecret)).toEqual([expect.stringMatching(/^RING_CLIENT_SECRET is the built-in demo secret/)]);
    expect(() => assertRunnableEnv(parseEnv({ RING_CLIENT_SECRET: "my-app-secret-123" }))).not.toThrow();
    // demo mode: the emulator's demo client, secret included
    const demo = parseEnv({ RINGSIDE_DEMO: "1" });
    expect(demo.RING_CLIENT_SECRET).toBe("ringside-demo-secret");
    expect(runtimeEnvProblems(demo)).toEqual([]);
  });
});

describe("the audit's settings", () => {
  it("warns loudly in production without AUTH_URL or PUBLIC_URL (the Host header would decide the public address); not in demo mode", async () => {
    const { publicUrlWarning } = await import("@/lib/env.mjs");
    expect(publicUrlWarning(parseEnv({}))).toMatch(/AUTH_URL nor PUBLIC_URL.*Host header/);
    expect(publicUrlWarning(parseEnv({ AUTH_URL: "https://r.example.test" }))).toBeNull();
    expect(publicUrlWarning(parseEnv({ PUBLIC_URL: "https://r.example.test" }))).toBeNull();
    expect(publicUrlWarning(parseEnv({ RINGSIDE_DEMO: "1" }))).toBeNull();
  });

  it("TOKEN_ENCRYPTION_KEY_FILE: the key read from its own file, checked at start; never both ways at once", async () => {
    const os = await import("node:os");
    const path = await import("node:path");
    const { readTokenKeyFile } = await import("@/lib/env.mjs");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-key-"));
    try {
      const good = path.join(dir, "key");
      fs.writeFileSync(good, `${"ab".repeat(32)}\n`, { mode: 0o600 });
      const bad = path.join(dir, "bad");
      fs.writeFileSync(bad, "not a key");
      expect(readTokenKeyFile(good)).toBe("ab".repeat(32));
      const base = { RING_CLIENT_SECRET: "own-secret-0123456789" };
      expect(runtimeEnvProblems(parseEnv({ ...base, TOKEN_ENCRYPTION_KEY_FILE: good }))).toEqual([]);
      expect(runtimeEnvProblems(parseEnv({ ...base, TOKEN_ENCRYPTION_KEY_FILE: bad })).join()).toMatch(
        /^TOKEN_ENCRYPTION_KEY_FILE: the key in .* must be 32 bytes/,
      );
      expect(runtimeEnvProblems(parseEnv({ ...base, TOKEN_ENCRYPTION_KEY_FILE: path.join(dir, "missing") })).join()).toMatch(
        /^TOKEN_ENCRYPTION_KEY_FILE: cannot read .*ENOENT/,
      );
      expect(() => parseEnv({ TOKEN_ENCRYPTION_KEY: "ab".repeat(32), TOKEN_ENCRYPTION_KEY_FILE: good })).toThrowError(/TOKEN_ENCRYPTION_KEY_FILE/);
      // the message never carries the key
      expect(runtimeEnvProblems(parseEnv({ ...base, TOKEN_ENCRYPTION_KEY_FILE: bad })).join()).not.toContain("not a key");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Home Assistant over MQTT's settings", () => {
  it("off unless MQTT_URL is set; the login from the URL or apart (apart wins), never in the URL kept; the topics' defaults", () => {
    expect(parseEnv({}).MQTT).toBeNull();
    expect(parseEnv({ MQTT_URL: "mqtt://ringside:p%40ss@ha.lan:1883" }).MQTT).toEqual({
      url: "mqtt://ha.lan:1883",
      username: "ringside",
      password: "p@ss",
      clientId: null,
      baseTopic: "ringside",
      discoveryPrefix: "homeassistant",
    });
    expect(
      parseEnv({
        MQTT_URL: "mqtts://old:secret@mqtt.example.net:8883",
        MQTT_USERNAME: "ringside",
        MQTT_PASSWORD: "new",
        MQTT_CLIENT_ID: "ringside-1",
        MQTT_BASE_TOPIC: "home/ringside",
        MQTT_DISCOVERY_PREFIX: "ha",
      }).MQTT,
    ).toEqual({
      url: "mqtts://mqtt.example.net:8883",
      username: "ringside",
      password: "new",
      clientId: "ringside-1",
      baseTopic: "home/ringside",
      discoveryPrefix: "ha",
    });
  });

  it("refuses what is not a broker address or a topic, naming the variable", () => {
    expect(() => parseEnv({ MQTT_URL: "http://ha.lan:1883" })).toThrow(/MQTT_URL: must be a broker address/);
    expect(() => parseEnv({ MQTT_URL: "mqtt://ha.lan:1883/path" })).toThrow(/MQTT_URL/);
    expect(() => parseEnv({ MQTT_URL: "mqtt://ha.lan", MQTT_BASE_TOPIC: "ringside/#" })).toThrow(/MQTT_BASE_TOPIC: must be a topic/);
    expect(() => parseEnv({ MQTT_URL: "mqtt://ha.lan", MQTT_DISCOVERY_PREFIX: "/homeassistant" })).toThrow(/MQTT_DISCOVERY_PREFIX/);
    expect(() => parseEnv({ MQTT_URL: "mqtt://ha.lan", MQTT_CLIENT_ID: "a b" })).toThrow(/MQTT_CLIENT_ID/);
  });
});
