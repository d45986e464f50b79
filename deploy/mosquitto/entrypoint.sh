#!/bin/sh
# Creates the dynamic-security file with Kelvin's admin account on the first start (Kelvin then adds its own
# account and one per device through $CONTROL/dynamic-security/v1), then runs the broker.
set -eu
file=/mosquitto/data/dynamic-security.json
# a fresh named volume may belong to root; the broker drops to the mosquitto user
chown -R mosquitto:mosquitto /mosquitto/data
if [ ! -f "$file" ]; then
  : "${MQTT_DYNSEC_USER:?MQTT_DYNSEC_USER 未设置（见 kelvin.env.example）}"
  : "${MQTT_DYNSEC_PASSWORD:?MQTT_DYNSEC_PASSWORD 未设置（见 kelvin.env.example）}"
  mosquitto_ctrl dynsec init "$file" "$MQTT_DYNSEC_USER" "$MQTT_DYNSEC_PASSWORD"
  chown mosquitto:mosquitto "$file"
fi
exec /usr/sbin/mosquitto -c /mosquitto/config/mosquitto.conf
