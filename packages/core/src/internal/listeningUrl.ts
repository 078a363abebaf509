import type { AddressInfo } from "node:net"

/** The URL a local client reaches a listening server at: a wildcard address becomes loopback, IPv6 is bracketed. */
export const listeningUrl = (address: AddressInfo): string => {
  const host = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address
  return `http://${address.family === "IPv6" ? `[${host}]` : host}:${address.port}`
}
