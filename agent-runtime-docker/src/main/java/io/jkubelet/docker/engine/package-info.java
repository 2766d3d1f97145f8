/**
 * jkubelet's own client of the Docker Engine API (v1.41, Docker 20.10): HTTP/1.1 over the JDK's unix-domain or TCP
 * {@link java.nio.channels.SocketChannel}, JSON through Jackson 3, and records named as the Engine API names its
 * objects. It carries only the calls and fields the Docker adapter uses; docker-java, its HTTP transport, Jackson 2
 * and Guava loaded about 1,450 classes for the same work.
 */
package io.jkubelet.docker.engine;
