export { redactSecrets, withoutSecrets } from "./withoutSecrets.js"
