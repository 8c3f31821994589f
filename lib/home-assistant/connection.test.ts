import { describe, expect, it } from "vitest";
import { brokerAddress } from "@/lib/home-assistant/connection";

describe("the broker's address", () => {
  it("takes protocol, host and port from MQTT_URL, with each protocol's default port", () => {
    expect(brokerAddress("mqtt://ha.lan:1884")).toEqual({ protocol: "mqtt", host: "ha.lan", port: 1884 });
    expect(brokerAddress("mqtt://ha.lan")).toEqual({ protocol: "mqtt", host: "ha.lan", port: 1883 });
    expect(brokerAddress("mqtts://mqtt.example.net")).toEqual({ protocol: "mqtts", host: "mqtt.example.net", port: 8883 });
    expect(brokerAddress("mqtt://[fd00::5]:1883")).toEqual({ protocol: "mqtt", host: "fd00::5", port: 1883 });
  });
});
