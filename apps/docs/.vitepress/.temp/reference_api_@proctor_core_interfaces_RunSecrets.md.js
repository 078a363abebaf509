import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RunSecrets","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RunSecrets.md","filePath":"reference/api/@proctor/core/interfaces/RunSecrets.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RunSecrets.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RunSecrets</p><h1 id="interface-runsecrets" tabindex="-1">Interface: RunSecrets <a class="header-anchor" href="#interface-runsecrets" aria-label="Permalink to &quot;Interface: RunSecrets&quot;">​</a></h1><p>Defined in: packages/core/src/eval/EvalRun.ts:125</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="env-config" tabindex="-1">env_config <a class="header-anchor" href="#env-config" aria-label="Permalink to &quot;env\\_config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>env_config</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:127</p><hr><h3 id="policy-config" tabindex="-1">policy_config <a class="header-anchor" href="#policy-config" aria-label="Permalink to &quot;policy\\_config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>policy_config</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/eval/EvalRun.ts:126</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RunSecrets.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RunSecrets = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RunSecrets as default
};
