#!/bin/sh
# A self-signed certificate for trying the deployment (browsers and devices will not trust it until told to):
#   ./make-cert.sh kelvin.example.com
# For production put the real certificate chain and key in certs/fullchain.pem and certs/privkey.pem instead.
set -eu
name=${1:?用法: ./make-cert.sh 域名或IP}
cd "$(dirname "$0")"
mkdir -p certs
case "$name" in
  *[!0-9.]*) san="DNS:$name" ;;
  *) san="IP:$name" ;;
esac
openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$name" -addext "subjectAltName=$san" \
  -keyout certs/privkey.pem -out certs/fullchain.pem
chmod 600 certs/privkey.pem
echo "已生成 certs/fullchain.pem 与 certs/privkey.pem（自签名，$name）。设备用 --cafile certs/fullchain.pem 信任它。"
