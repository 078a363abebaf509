import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Class: TemplateProblem","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/classes/TemplateProblem.md","filePath":"reference/api/@proctor/core/classes/TemplateProblem.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/classes/TemplateProblem.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / TemplateProblem</p><h1 id="class-templateproblem" tabindex="-1">Class: TemplateProblem <a class="header-anchor" href="#class-templateproblem" aria-label="Permalink to &quot;Class: TemplateProblem&quot;">​</a></h1><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:14</p><p>A template that does not parse, or a row it cannot be filled from (the column it names is not in the row).</p><h2 id="extends" tabindex="-1">Extends <a class="header-anchor" href="#extends" aria-label="Permalink to &quot;Extends&quot;">​</a></h2><ul><li><code>Error</code></li></ul><h2 id="constructors" tabindex="-1">Constructors <a class="header-anchor" href="#constructors" aria-label="Permalink to &quot;Constructors&quot;">​</a></h2><h3 id="constructor" tabindex="-1">Constructor <a class="header-anchor" href="#constructor" aria-label="Permalink to &quot;Constructor&quot;">​</a></h3><blockquote><p><strong>new TemplateProblem</strong>(<code>message</code>, <code>column</code>): <code>TemplateProblem</code></p></blockquote><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:15</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="message" tabindex="-1">message <a class="header-anchor" href="#message" aria-label="Permalink to &quot;message&quot;">​</a></h5><p><code>string</code></p><h5 id="column" tabindex="-1">column <a class="header-anchor" href="#column" aria-label="Permalink to &quot;column&quot;">​</a></h5><p><code>string</code> | <code>undefined</code></p><p>The column a row lacks (<code>item.question</code> → <code>question</code>), when that is the problem.</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>TemplateProblem</code></p><h4 id="overrides" tabindex="-1">Overrides <a class="header-anchor" href="#overrides" aria-label="Permalink to &quot;Overrides&quot;">​</a></h4><p><code>Error.constructor</code></p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="column-1" tabindex="-1">column <a class="header-anchor" href="#column-1" aria-label="Permalink to &quot;column&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>column</strong>: <code>string</code> | <code>undefined</code></p></blockquote><p>Defined in: packages/core/src/dataset/ItemTemplate.ts:18</p><p>The column a row lacks (<code>item.question</code> → <code>question</code>), when that is the problem.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/classes/TemplateProblem.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const TemplateProblem = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  TemplateProblem as default
};
