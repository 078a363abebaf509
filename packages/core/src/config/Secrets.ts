export { redactSecrets, withoutSecrets } from "./internal/withoutSecrets.js"
