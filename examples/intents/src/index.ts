export { APP_ID, createIntentsApp, type IntentsAppOptions } from "./app.js"
export {
  DEFAULT_DATASET_URL,
  type Example,
  exampleForSeed,
  type Intent,
  type IntentDataset,
  type LabelledUtterance,
  loadDataset,
} from "./dataset.js"
export { type Grade, type GradeReason, grade } from "./grade.js"
export { buildMessages, chatRequestBody, classifyTool, TOOL_NAME } from "./prompt.js"
