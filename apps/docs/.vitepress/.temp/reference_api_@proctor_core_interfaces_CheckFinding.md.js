import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: CheckFinding","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/CheckFinding.md","filePath":"reference/api/@proctor/core/interfaces/CheckFinding.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/CheckFinding.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / CheckFinding</p><h1 id="interface-checkfinding" tabindex="-1">Interface: CheckFinding <a class="header-anchor" href="#interface-checkfinding" aria-label="Permalink to &quot;Interface: CheckFinding&quot;">​</a></h1><p>Defined in: packages/core/src/taskApp/TaskAppCheck.ts:9</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="check" tabindex="-1">check <a class="header-anchor" href="#check" aria-label="Permalink to &quot;check&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>check</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppCheck.ts:10</p><hr><h3 id="detail" tabindex="-1">detail <a class="header-anchor" href="#detail" aria-label="Permalink to &quot;detail&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>detail</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppCheck.ts:13</p><hr><h3 id="status" tabindex="-1">status <a class="header-anchor" href="#status" aria-label="Permalink to &quot;status&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>status</strong>: <code>&quot;pass&quot;</code> | <code>&quot;fail&quot;</code> | <code>&quot;warn&quot;</code> | <code>&quot;skip&quot;</code></p></blockquote><p>Defined in: packages/core/src/taskApp/TaskAppCheck.ts:12</p><p><code>skip</code>: not checked, for the reason in <code>detail</code> (not a deviation).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/CheckFinding.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const CheckFinding = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  CheckFinding as default
};
