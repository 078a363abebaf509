import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: Dataset","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/Dataset.md","filePath":"reference/api/@proctor/core/interfaces/Dataset.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/Dataset.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / Dataset</p><h1 id="interface-dataset" tabindex="-1">Interface: Dataset <a class="header-anchor" href="#interface-dataset" aria-label="Permalink to &quot;Interface: Dataset&quot;">​</a></h1><p>Defined in: packages/core/src/dataset/Dataset.ts:10</p><p>A dataset&#39;s rows, each a task: seed <code>i</code> is row <code>i</code>, its task id the row&#39;s <code>id</code> column or its row number.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="ids" tabindex="-1">ids <a class="header-anchor" href="#ids" aria-label="Permalink to &quot;ids&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>ids</strong>: readonly <a href="./../#datasetrowid"><code>DatasetRowId</code></a>[]</p></blockquote><p>Defined in: packages/core/src/dataset/Dataset.ts:13</p><hr><h3 id="path" tabindex="-1">path <a class="header-anchor" href="#path" aria-label="Permalink to &quot;path&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>path</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/dataset/Dataset.ts:11</p><hr><h3 id="rows" tabindex="-1">rows <a class="header-anchor" href="#rows" aria-label="Permalink to &quot;rows&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>rows</strong>: readonly <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;[]</p></blockquote><p>Defined in: packages/core/src/dataset/Dataset.ts:12</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/Dataset.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const Dataset = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  Dataset as default
};
