/** jkubelet cmd. */
package io.jkubelet.cmd;
