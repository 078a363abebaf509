import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse(`{"title":"","description":"","frontmatter":{"layout":"home","hero":{"name":"proctor","text":"Evaluate LLM agents on task apps","tagline":"Fast, without losing a result, with honest statistics, and every model call traced and priced.","actions":[{"theme":"brand","text":"Quick start","link":"/guide/quick-start"},{"theme":"alt","text":"Concepts","link":"/guide/concepts"},{"theme":"alt","text":"Reference","link":"/reference/config"}]},"features":[{"title":"Task apps, synth-ai compatible","details":"proctor points at a task app — an HTTP service that builds the prompt for a seed, calls the model and grades the answer — and runs one rollout per seed and attempt. It speaks synth-ai's task-app contract and reads its [eval] TOML."},{"title":"Nothing lost","details":"Every finished rollout is written to the run directory before it is counted. Ctrl-C, a crash or kill -9 — resume runs exactly the rollouts that are missing."},{"title":"Honest numbers","details":"Error-aware summaries with standard errors clustered by seed, pass@k, latency percentiles, and tokens and cost measured on the wire by an inference interceptor."},{"title":"Four ways in","details":"The proctor CLI, a self-hosted job server many people submit to, evaluate() in your own TypeScript, and these docs."},{"title":"References generated from the code","details":"Every config key, CLI flag, HTTP route, error kind, exit code and price on this site is generated from the code that defines it, and a test fails when a page is stale."},{"title":"Examples that run","details":"Every code block marked runnable in these docs is executed by proctor's test suite against the example task apps and a local baseline model."}]},"headers":[],"relativePath":"index.md","filePath":"index.md"}`);
const _sfc_main = { name: "index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
