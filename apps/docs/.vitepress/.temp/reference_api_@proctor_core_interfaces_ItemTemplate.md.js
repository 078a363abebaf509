import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ItemTemplate","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ItemTemplate.md","filePath":"reference/api/@proctor/core/interfaces/ItemTemplate.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ItemTemplate.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ItemTemplate</p><h1 id="interface-itemtemplate" tabindex="-1">Interface: ItemTemplate <a class="header-anchor" href="#interface-itemtemplate" aria-label="Permalink to &quot;Interface: ItemTemplate&quot;">​</a></h1><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:24</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="render" tabindex="-1">render <a class="header-anchor" href="#render" aria-label="Permalink to &quot;render&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>render</strong>: (<code>item</code>) =&gt; <code>string</code></p></blockquote><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:27</p><p>The text for a row; throws a <code>TemplateProblem</code> when the row lacks a column the template names.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="item" tabindex="-1">item <a class="header-anchor" href="#item" aria-label="Permalink to &quot;item&quot;">​</a></h5><p><code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>string</code></p><hr><h3 id="source" tabindex="-1">source <a class="header-anchor" href="#source" aria-label="Permalink to &quot;source&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>source</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:25</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ItemTemplate.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ItemTemplate = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ItemTemplate as default
};
