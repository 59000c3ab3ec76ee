
import{a,b,c}from"./chunk-ECFO4B7S.js";import"./chunk-7YWC3P3A.js";export{c as DIFF_EXIT_CODES_HELP,b as EXIT_CODES_HELP,a as ExitCode};
