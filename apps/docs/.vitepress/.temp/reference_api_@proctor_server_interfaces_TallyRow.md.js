import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: TallyRow","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/TallyRow.md","filePath":"reference/api/@proctor/server/interfaces/TallyRow.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/TallyRow.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / TallyRow</p><h1 id="interface-tallyrow" tabindex="-1">Interface: TallyRow <a class="header-anchor" href="#interface-tallyrow" aria-label="Permalink to &quot;Interface: TallyRow&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/ResultTally.ts:34</p><p>What a stored row contributes to a tally (its columns as stored).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="costusd" tabindex="-1">costUsd <a class="header-anchor" href="#costusd" aria-label="Permalink to &quot;costUsd&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>costUsd</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:38</p><hr><h3 id="score" tabindex="-1">score <a class="header-anchor" href="#score" aria-label="Permalink to &quot;score&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>score</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:36</p><hr><h3 id="status" tabindex="-1">status <a class="header-anchor" href="#status" aria-label="Permalink to &quot;status&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>status</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:35</p><hr><h3 id="tokens" tabindex="-1">tokens <a class="header-anchor" href="#tokens" aria-label="Permalink to &quot;tokens&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tokens</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:37</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/TallyRow.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const TallyRow = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  TallyRow as default
};
