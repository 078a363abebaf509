import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RowPrompt","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/RowPrompt.md","filePath":"reference/api/@proctor/core/interfaces/RowPrompt.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/RowPrompt.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / RowPrompt</p><h1 id="interface-rowprompt" tabindex="-1">Interface: RowPrompt <a class="header-anchor" href="#interface-rowprompt" aria-label="Permalink to &quot;Interface: RowPrompt&quot;">​</a></h1><p>Defined in: packages/core/src/dataset/DatasetSolver.ts:13</p><p>A row&#39;s messages, filled in before the run (a row that cannot be filled stops the run before it starts).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="system" tabindex="-1">system <a class="header-anchor" href="#system" aria-label="Permalink to &quot;system&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>system</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/dataset/DatasetSolver.ts:14</p><hr><h3 id="user" tabindex="-1">user <a class="header-anchor" href="#user" aria-label="Permalink to &quot;user&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>user</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/dataset/DatasetSolver.ts:15</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/RowPrompt.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RowPrompt = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RowPrompt as default
};
