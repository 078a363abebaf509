export * from "./api.js"
export {
  embeddedDataTag,
  embeddedRolloutTag,
  scriptJson,
  viewerPage,
  viewerPageParts,
} from "./viewerPage.js"
