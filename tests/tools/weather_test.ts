import assert from "node:assert/strict";
import { weatherTool } from "../../src/tools/weather.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

/** Bodies shaped like Open-Meteo's answers (geocoding-api /v1/search, api /v1/forecast). */
const paris = {
  results: [{
    id: 2988507,
    name: "Paris",
    latitude: 48.85341,
    longitude: 2.3488,
    elevation: 42,
    feature_code: "PPLC",
    country_code: "FR",
    timezone: "Europe/Paris",
    population: 2138551,
    country: "France",
    admin1: "Île-de-France",
  }],
  generationtime_ms: 0.71,
};

const forecast = {
  latitude: 48.86,
  longitude: 2.3399997,
  generationtime_ms: 0.1,
  utc_offset_seconds: 3600,
  timezone: "Europe/Paris",
  timezone_abbreviation: "GMT+1",
  elevation: 43,
  current_units: { time: "iso8601", interval: "seconds", temperature_2m: "°C" },
  current: {
    time: "2026-11-23T19:00",
    interval: 900,
    temperature_2m: 7.1,
    apparent_temperature: 4.9,
    relative_humidity_2m: 81,
    precipitation: 0,
    weather_code: 3,
    wind_speed_10m: 12.2,
  },
  daily_units: { time: "iso8601", temperature_2m_max: "°C" },
  daily: {
    time: ["2026-11-23", "2026-11-24"],
    weather_code: [3, 61],
    temperature_2m_max: [9.4, 10.1],
    temperature_2m_min: [4.2, 6],
    precipitation_sum: [0.2, 5.8],
    precipitation_probability_max: [40, 90],
  },
};

function startOpenMeteo() {
  const requests: URL[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const url = new URL(request.url);
    requests.push(url);
    if (url.pathname === "/v1/search") {
      return Response.json(
        url.searchParams.get("name") === "Paris" ? paris : { generationtime_ms: 1 },
      );
    }
    if (url.pathname === "/v1/forecast") {
      if (url.searchParams.get("latitude") === "999") {
        return Response.json({ error: true, reason: "Latitude must be in range of -90 to 90°." }, {
          status: 400,
        });
      }
      return Response.json(forecast);
    }
    return new Response("no", { status: 404 });
  });
  return { server, requests, base: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("weather: geocodes the place and answers in a few compact lines", async () => {
  const home = tempHome();
  const fake = startOpenMeteo();
  try {
    const tool = weatherTool(toolDeps(home, (c) => {
      c.tools.weather.geocoding_url = fake.base;
      c.tools.weather.forecast_url = fake.base;
    }));
    const result = await call(tool, { location: "Paris", days: 2 });
    assert.equal(result.outcome, "ok", result.text);
    assert.equal(
      result.text,
      [
        "Paris, Île-de-France, France (48.85, 2.35)",
        "Now: 7.1 °C (feels 4.9 °C), overcast, wind 12.2 km/h, humidity 81 %",
        "2026-11-23: overcast, 4.2 to 9.4 °C, precipitation 0.2 mm (40 % chance)",
        "2026-11-24: light rain, 6 to 10.1 °C, precipitation 5.8 mm (90 % chance)",
      ].join("\n"),
    );
    const asked = fake.requests.at(-1)!;
    assert.equal(asked.searchParams.get("latitude"), "48.85341");
    assert.equal(asked.searchParams.get("forecast_days"), "2");
    assert.equal(asked.searchParams.get("timezone"), "auto");
    assert.equal(asked.searchParams.get("temperature_unit"), null, "metric by default");
  } finally {
    await fake.server.shutdown();
    home.dispose();
  }
});

Deno.test("weather: coordinates skip geocoding; imperial units; unknown places; server errors", async () => {
  const home = tempHome();
  const fake = startOpenMeteo();
  try {
    const tool = weatherTool(toolDeps(home, (c) => {
      c.tools.weather.geocoding_url = fake.base;
      c.tools.weather.forecast_url = fake.base;
      c.tools.weather.units = "imperial";
    }));
    let result = await call(tool, { location: "40.7, -74.0" });
    assert.equal(result.outcome, "ok", result.text);
    assert.match(result.text, /^40\.7, -74 \(40\.70, -74\.00\)\nNow: 7\.1 °F/);
    assert.equal(fake.requests.length, 1, "no geocoding request");
    assert.equal(fake.requests[0].searchParams.get("temperature_unit"), "fahrenheit");
    result = await call(tool, { location: "Nowhereville" });
    assert.equal(result.outcome, "error");
    assert.equal(result.text, 'No place called "Nowhereville" was found.');
    assert.equal((await call(tool, { location: "999, 1" })).outcome, "error");
  } finally {
    await fake.server.shutdown();
    home.dispose();
  }
});

Deno.test("weather: the public endpoints must resolve publicly (checked before connecting)", async () => {
  const home = tempHome();
  try {
    const connects: string[] = [];
    const tool = weatherTool(
      toolDeps(home),
      () => Promise.resolve(["127.0.0.1"]),
      (url) => {
        connects.push(url.href);
        return Promise.reject(new Error("must not connect"));
      },
    );
    const result = await call(tool, { location: "Paris" });
    assert.equal(result.outcome, "error");
    assert.match(
      result.text,
      /Open-Meteo refused: geocoding-api\.open-meteo\.com resolves to 127\.0\.0\.1, a loopback address/,
    );
    assert.deepEqual(connects, []);
  } finally {
    home.dispose();
  }
});
