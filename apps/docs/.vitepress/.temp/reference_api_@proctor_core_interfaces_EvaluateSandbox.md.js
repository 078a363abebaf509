import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: EvaluateSandbox<T>","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/EvaluateSandbox.md","filePath":"reference/api/@proctor/core/interfaces/EvaluateSandbox.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/EvaluateSandbox.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / EvaluateSandbox</p><h1 id="interface-evaluatesandbox-t" tabindex="-1">Interface: EvaluateSandbox&lt;T&gt; <a class="header-anchor" href="#interface-evaluatesandbox-t" aria-label="Permalink to &quot;Interface: EvaluateSandbox\\&lt;T\\&gt;&quot;">​</a></h1><p>Defined in: packages/core/src/eval/Evaluate.ts:42</p><p>Each rollout&#39;s sandbox (<code>ctx.sandbox</code>): opened before <code>solve</code>, torn down after, labelled with run and rollout.</p><h2 id="type-parameters" tabindex="-1">Type Parameters <a class="header-anchor" href="#type-parameters" aria-label="Permalink to &quot;Type Parameters&quot;">​</a></h2><h3 id="t" tabindex="-1">T <a class="header-anchor" href="#t" aria-label="Permalink to &quot;T&quot;">​</a></h3><p><code>T</code></p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="runtime" tabindex="-1">runtime <a class="header-anchor" href="#runtime" aria-label="Permalink to &quot;runtime&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runtime</strong>: <a href="./SandboxRuntimeService.html"><code>SandboxRuntimeService</code></a> | <code>Layer</code>&lt;<a href="./../classes/SandboxRuntime.html"><code>SandboxRuntime</code></a>, <a href="./../classes/SandboxError.html"><code>SandboxError</code></a>, <code>never</code>&gt;</p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:44</p><p><code>DockerRuntime</code>, <code>BwrapRuntime</code> (@proctor/sandbox), <code>LocalRuntime</code>: a layer, or the service itself.</p><hr><h3 id="spec" tabindex="-1">spec <a class="header-anchor" href="#spec" aria-label="Permalink to &quot;spec&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>spec</strong>: (<code>task</code>) =&gt; <code>Omit</code>&lt;<a href="./SandboxSpec.html"><code>SandboxSpec</code></a>, <code>&quot;labels&quot;</code>&gt;</p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:45</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="task" tabindex="-1">task <a class="header-anchor" href="#task" aria-label="Permalink to &quot;task&quot;">​</a></h5><p><code>T</code></p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Omit</code>&lt;<a href="./SandboxSpec.html"><code>SandboxSpec</code></a>, <code>&quot;labels&quot;</code>&gt;</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/EvaluateSandbox.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const EvaluateSandbox = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  EvaluateSandbox as default
};
