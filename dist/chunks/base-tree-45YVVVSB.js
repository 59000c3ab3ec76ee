
import{d as a,e as b,f as c,g as d,h as e}from"./chunk-Z5ACXZVW.js";import"./chunk-THFKJ363.js";export{c as TREE_BUDGET_MS,b as TREE_LIMITS,d as checkoutBaseTree,a as commandLineGit,e as unsafeNameReason};
