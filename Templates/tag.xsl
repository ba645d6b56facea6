<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one page of a tag (tags/SLUG.html, tags/SLUG-page-2.html, ...) of a gallery, and, through
  site-tag.xsl, of a site (the model a <site>, the items under their galleries).
  $page is the @id of a <page> of a <tag>; $root is the prefix to the output root.
  The view holds that tag with the pages its pager links and, in their collection (or gallery), the items on this
  page: the same tiles as the grid (from grid.xsl), each showing the entry with the tag.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="grid.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:variable name="shown-tag" select="string($current/../@name)"/>

  <xsl:template match="tag/page" mode="body-class">grid-page tag-page</xsl:template>

  <xsl:template match="tag/page" mode="bar"/>

  <xsl:template match="tag/page" mode="title">
    <xsl:text>Tagged “</xsl:text>
    <xsl:value-of select="../@name"/>
    <xsl:text>”</xsl:text>
    <xsl:if test="../@page-count &gt; 1">
      <xsl:text> — page </xsl:text>
      <xsl:value-of select="@number"/>
      <xsl:text> of </xsl:text>
      <xsl:value-of select="../@page-count"/>
    </xsl:if>
    <xsl:text> — </xsl:text>
    <xsl:value-of select="/gallery/title | /site/title"/>
  </xsl:template>

  <xsl:template match="tag/page" mode="preload">
    <xsl:apply-templates select="(/gallery/collection/item | /site/gallery/item)[1]" mode="tile">
      <xsl:with-param name="preload" select="true()"/>
    </xsl:apply-templates>
  </xsl:template>
  <!-- The rights data of the pictures is on their grid and preview pages. -->
  <xsl:template match="tag/page" mode="rights-data"/>

  <!-- Only the card, with the first tile that may be copied as a grid page's (a tile shows its item's first entry
       with the tag): the rights data of the pictures is on their grid and preview pages. -->
  <xsl:template match="tag/page" mode="card">
    <xsl:if test="$base-url">
      <xsl:variable name="title"><xsl:apply-templates select="." mode="title"/></xsl:variable>
      <xsl:call-template name="preview-card">
        <xsl:with-param name="title" select="$title"/>
        <xsl:with-param name="description" select="concat(../@count, ' images', substring(concat(' from ', $source-label), 1, 1000 * number(boolean($source-label))))"/>
        <xsl:with-param name="image" select="((/gallery/collection/item | /site/gallery/item)/entry[not(missing)][tag = $shown-tag][1][license/@copies = 'allowed']/image[@role = 'tile'][@src or @url])[1]"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template match="tag/page" mode="main">
    <xsl:variable name="items" select="/gallery/collection/item | /site/gallery/item"/>
    <div class="intro">
      <h1>Tagged <q dir="auto"><xsl:value-of select="../@name"/></q></h1>
      <p class="count">
        <xsl:value-of select="../@count"/>
        <xsl:choose>
          <xsl:when test="../@count = 1"> image</xsl:when>
          <xsl:otherwise> images</xsl:otherwise>
        </xsl:choose>
        <xsl:if test="../@page-count &gt; 1">
          <xsl:text> · page </xsl:text>
          <xsl:value-of select="@number"/>
          <xsl:text> of </xsl:text>
          <xsl:value-of select="../@page-count"/>
        </xsl:if>
        <xsl:text> · </xsl:text>
        <a href="{concat($root, ../../@href)}">All tags</a>
        <xsl:if test="../@site-href">
          <xsl:text> · </xsl:text>
          <a class="site-tag" href="{concat($root, ../@site-href)}">In every gallery</a>
        </xsl:if>
      </p>
    </div>
    <xsl:choose>
      <xsl:when test="$items">
        <ol class="grid" start="{(@number - 1) * ../../@per-page + 1}" data-preview-sizes="{$full-sizes}">
          <xsl:apply-templates select="$items" mode="tile"/>
        </ol>
      </xsl:when>
      <xsl:otherwise>
        <p class="empty">No images.</p>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="pager">
      <xsl:with-param name="pages" select="../page"/>
      <xsl:with-param name="n" select="number(@number)"/>
    </xsl:call-template>
  </xsl:template>

</xsl:stylesheet>
