
import{a,b,c}from"./chunk-ECFO4B7S.js";import"./chunk-THFKJ363.js";export{c as DIFF_EXIT_CODES_HELP,b as EXIT_CODES_HELP,a as ExitCode};
