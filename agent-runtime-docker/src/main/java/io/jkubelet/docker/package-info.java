/** jkubelet docker. */
package io.jkubelet.docker;
