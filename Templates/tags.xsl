<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: a gallery's tag index (tags/index.html in its folder), and, through site-tags.xsl, a
  site's (tags/index.html at the root, the model a <site>).
  $page is the @id of the <tags> element ('tags'); $root is the prefix to the output root.
  Every <tag> of the view, as the model lists them (most items first, then by name), linked to its first page,
  with its count.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="tags" mode="body-class">tags-page</xsl:template>

  <xsl:template match="tags" mode="title">
    <xsl:text>Tags — </xsl:text>
    <xsl:value-of select="/gallery/title | /site/title"/>
  </xsl:template>

  <!-- "24 tags: harbour, crane, bridge, ship, night, …" -->
  <xsl:template match="tags" mode="card-description">
    <xsl:value-of select="count(tag)"/>
    <xsl:choose>
      <xsl:when test="count(tag) = 1"> tag</xsl:when>
      <xsl:otherwise> tags</xsl:otherwise>
    </xsl:choose>
    <xsl:for-each select="tag[position() &lt;= 5]">
      <xsl:choose>
        <xsl:when test="position() = 1">: </xsl:when>
        <xsl:otherwise>, </xsl:otherwise>
      </xsl:choose>
      <xsl:value-of select="@name"/>
    </xsl:for-each>
    <xsl:if test="count(tag) &gt; 5">, …</xsl:if>
  </xsl:template>

  <xsl:template match="tags" mode="main">
    <div class="intro">
      <h1 id="tags-title">Tags</h1>
      <p class="count">
        <xsl:value-of select="count(tag)"/>
        <xsl:choose>
          <xsl:when test="count(tag) = 1"> tag</xsl:when>
          <xsl:otherwise> tags</xsl:otherwise>
        </xsl:choose>
        <xsl:text> · </xsl:text>
        <xsl:choose>
          <xsl:when test="/site"><a href="{concat($root, /site/@href)}">All galleries</a></xsl:when>
          <xsl:otherwise><a href="{concat($root, $home-href)}">All images</a></xsl:otherwise>
        </xsl:choose>
        <xsl:if test="/gallery/site/@tags">
          <xsl:text> · </xsl:text>
          <a class="site-tags" href="{concat($root, /gallery/site/@tags)}">Tags of every gallery</a>
        </xsl:if>
      </p>
    </div>
    <nav aria-labelledby="tags-title">
      <ul class="tag-list">
        <xsl:for-each select="tag">
          <li>
            <a href="{concat($root, @href)}" dir="auto"><xsl:value-of select="@name"/></a>
            <span class="count">
              <span class="vh">: </span>
              <xsl:value-of select="@count"/>
              <span class="vh">
                <xsl:choose>
                  <xsl:when test="@count = 1"> image</xsl:when>
                  <xsl:otherwise> images</xsl:otherwise>
                </xsl:choose>
              </span>
            </span>
          </li>
        </xsl:for-each>
      </ul>
    </nav>
  </xsl:template>

</xsl:stylesheet>
