
import{a}from"./chunk-Y7GVKPD5.js";import"./chunk-SBWINDQ6.js";import"./chunk-F5YA2GS6.js";import"./chunk-YBKZYC7I.js";import"./chunk-EJ2JJPDM.js";import"./chunk-TK2DORIV.js";import"./chunk-SRJH4KEO.js";import"./chunk-VLLA3SL4.js";import"./chunk-THFKJ363.js";export{a as rerunMemory};
