import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JunitSuite","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/JunitSuite.md","filePath":"reference/api/@proctor/report/interfaces/JunitSuite.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/JunitSuite.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / JunitSuite</p><h1 id="interface-junitsuite" tabindex="-1">Interface: JunitSuite <a class="header-anchor" href="#interface-junitsuite" aria-label="Permalink to &quot;Interface: JunitSuite&quot;">​</a></h1><p>Defined in: packages/report/src/exports/junit.ts:41</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="classname" tabindex="-1">classname <a class="header-anchor" href="#classname" aria-label="Permalink to &quot;classname&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>classname</strong>: <code>string</code></p></blockquote><p>Defined in: packages/report/src/exports/junit.ts:45</p><p>Every test case&#39;s class name (CI tools group by it): <code>proctor.{app_id}</code>.</p><hr><h3 id="counts" tabindex="-1">counts <a class="header-anchor" href="#counts" aria-label="Permalink to &quot;counts&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>counts</strong>: <a href="./../classes/JunitCounts.html"><code>JunitCounts</code></a></p></blockquote><p>Defined in: packages/report/src/exports/junit.ts:47</p><hr><h3 id="name" tabindex="-1">name <a class="header-anchor" href="#name" aria-label="Permalink to &quot;name&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>name</strong>: <code>string</code></p></blockquote><p>Defined in: packages/report/src/exports/junit.ts:43</p><p>The suite&#39;s name: the run id.</p><hr><h3 id="timestamp" tabindex="-1">timestamp <a class="header-anchor" href="#timestamp" aria-label="Permalink to &quot;timestamp&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>timestamp</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/report/src/exports/junit.ts:46</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/JunitSuite.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JunitSuite = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JunitSuite as default
};
